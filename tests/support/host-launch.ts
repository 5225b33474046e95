import type { Page } from 'playwright-core'

/**
 * Presses the Telegram host emulator's Launch and returns once the app frame it replaces is gone.
 * The host removes the old frame only when the new launch's parameters are back, so until then the
 * old app is still on screen and answering: a test that looked at once would read the old app, or
 * call into a frame about to be detached.
 */
export const launchAgain = async (page: Page): Promise<void> => {
  const frames = page.locator('[data-testid="host-iframe"]')
  await frames.evaluateAll((els) => els.forEach((el) => el.setAttribute('data-replaced', '')))
  await page.locator('[data-testid="host-launch"]').click()
  await page.locator('[data-testid="host-iframe"][data-replaced]').waitFor({ state: 'detached' })
}
