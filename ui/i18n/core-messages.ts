import type { Language } from './use-t.ts'

/**
 * Russian for the fixed English texts the core puts in toasts (spec §4, §8). Texts that carry a
 * server message ('Error: ' + msg) keep the server's words and translate only the prefix.
 */
const RU: Readonly<Record<string, string>> = {
  'New Bond created': 'Новый бонд создан',
  'New Bond created via Farming': 'Новый бонд создан через фарминг',
  'New Stake created': 'Новый стейк создан',
  'Transaction is being processed': 'Транзакция обрабатывается',
  'Error: File size is too large! Upload a smaller file.': 'Ошибка: файл слишком большой! Загрузите файл поменьше.',
  'Error: Network Error! Code: ERR_NETWORK': 'Ошибка: сеть недоступна! Код: ERR_NETWORK',
  'Error: Timeout Error!': 'Ошибка: истекло время ожидания!',
  'Wallet was not connected': 'Кошелёк не подключён',
  'Transaction was not sent': 'Транзакция не отправлена',
  'Connection declined': 'Подключение отклонено',
  'Wallet is not connected': 'Кошелёк не подключён',
  'Provider is not restored': 'Подключение не восстановлено',
  'Open AXIOM inside Telegram': 'Откройте AXIOM в Telegram',
  'This wallet is linked to another AXIOM account, so it was disconnected. Connect a wallet of your own.':
    'Этот кошелёк привязан к другому аккаунту AXIOM, поэтому он отключён. Подключите свой кошелёк.',
  'The wallet could not prove it is yours, so it was disconnected. Connect it again.':
    'Кошелёк не подтвердил, что он ваш, поэтому он отключён. Подключите его снова.',
}

export const localizeCoreMessage = (text: string, language: Language): string => {
  if (language === 'en') return text
  const exact = RU[text]
  if (exact) return exact
  return text.startsWith('Error: ') ? `Ошибка: ${text.slice('Error: '.length)}` : text
}
