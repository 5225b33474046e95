import { languageFor, translate } from './i18n/catalogues.ts'

/**
 * A boot step could not load (its chunk did not download) or failed: the failed screen, drawn
 * without React, in the user's language (Telegram's `language_code`, from the launch parameters),
 * with "Try again" reloading the page. Without it the page would keep its loader forever. (Russian
 * when its catalogue has loaded: the entry starts loading it first thing; English otherwise.)
 */
export const showBootFailure = (root: HTMLElement, language: string): void => {
  const lang = languageFor(language)
  const t = (key: Parameters<typeof translate>[1]) => translate(lang, key)
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text: string) =>
    Object.assign(document.createElement(tag), { className, textContent: text })
  const retry = element('button', 'btn btn--primary btn--md', t('failed.retry'))
  retry.type = 'button'
  retry.dataset.testid = 'failed-retry'
  retry.addEventListener('click', () => location.reload())
  const screen = element('main', 'full-screen', '')
  screen.dataset.testid = 'failed'
  screen.append(element('h1', 'full-screen__title', t('failed.title')), element('p', 'full-screen__body', t('failed.body')), retry)
  root.replaceChildren(screen)
}
