import { en } from './i18n/en.ts'
import { ru } from './i18n/ru.ts'

/** The Telegram user's language from the launch parameters (the platform adapter is not loaded yet). */
const launchLanguage = (): string => {
  try {
    const data = new URLSearchParams(location.hash.slice(1)).get('tgWebAppData')
    const user = data ? new URLSearchParams(data).get('user') : null
    return user ? String((JSON.parse(user) as { language_code?: unknown }).language_code ?? '') : ''
  } catch {
    return ''
  }
}

/**
 * A boot step could not load (its chunk did not download) or failed: the failed screen, drawn
 * without React, in the user's language, with "Try again" reloading the page. Without it the page
 * would keep its loader forever.
 */
export const showBootFailure = (root: HTMLElement): void => {
  const t = /^ru/i.test(launchLanguage()) ? ru : en
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text: string) =>
    Object.assign(document.createElement(tag), { className, textContent: text })
  const retry = element('button', 'btn btn--primary btn--md', t['failed.retry'])
  retry.type = 'button'
  retry.dataset.testid = 'failed-retry'
  retry.addEventListener('click', () => location.reload())
  const screen = element('main', 'full-screen', '')
  screen.dataset.testid = 'failed'
  screen.append(element('h1', 'full-screen__title', t['failed.title']), element('p', 'full-screen__body', t['failed.body']), retry)
  root.replaceChildren(screen)
}
