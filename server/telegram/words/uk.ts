import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** Ukrainian. */
export const uk: TelegramWords = {
  notices: {
    bond_paid: (p) => `Оплату отримано: бонд #${p.number ?? p.mint_id} на ${p.amount} AXIOM активний.`,
    bond_completed: (p) => `Бонд #${p.number ?? p.mint_id} завершено: ${p.amount} AXIOM і нагороду зараховано на баланс.`,
    stake_completed: (p) => `Стейк #${p.number ?? p.stake_id} завершено: ${p.amount} AXIOM і нагороду зараховано на баланс.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `Продаж #${p.sale_id}: ${p.token_amount} AXIOM за ${p.amount_ton} ${COIN} на адресу ${p.address}. Виплата вже триває.`
        : `Продаж #${p.sale_id}: ${p.token_amount} AXIOM за ${p.amount_ton} ${COIN} на адресу ${p.address}.\n` +
          `Ця адреса нова для вашого акаунта (це не гаманець, підключений через TON Connect), тому виплата чекає до ${utcTime(Number(p.release_at))}. ` +
          `Це не ви? Скасуйте продаж до цього часу: токени повернуться на баланс.`,
    sale_paid: (p) => `Продаж виплачено: ${p.amount_ton} ${COIN} надіслано на ваш гаманець.`,
    friend_joined: (p) => `${p.name} приєднався до AXIOM за вашим посиланням.`,
    farming_used: (p) => `${p.name} використав ваше посилання фармінгу: бонд на ${p.amount} AXIOM.`,
  },
  cancelSale: 'Скасувати продаж',
  openApp: 'Відкрити AXIOM',
  invitation: { title: 'Запрошення до AXIOM', text: 'Приєднуйся до мене в AXIOM: бонди, стейкінг і нагороди в AXIOM на TON.', button: 'Відкрити AXIOM' },
}
