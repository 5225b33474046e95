import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** Russian. */
export const ru: TelegramWords = {
  notices: {
    bond_paid: (p) => `Оплата получена: бонд #${p.number ?? p.mint_id} на ${p.amount} AXIOM активен.`,
    bond_completed: (p) => `Бонд #${p.number ?? p.mint_id} завершён: ${p.amount} AXIOM и награда зачислены на баланс.`,
    stake_completed: (p) => `Стейк #${p.number ?? p.stake_id} завершён: ${p.amount} AXIOM и награда зачислены на баланс.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `Продажа #${p.sale_id}: ${p.token_amount} AXIOM за ${p.amount_ton} ${COIN} на адрес ${p.address}. Выплата уже идёт.`
        : `Продажа #${p.sale_id}: ${p.token_amount} AXIOM за ${p.amount_ton} ${COIN} на адрес ${p.address}.\n` +
          `Этот адрес новый для вашего аккаунта (это не кошелёк, подключённый через TON Connect), поэтому выплата ждёт до ${utcTime(Number(p.release_at))}. ` +
          `Это не вы? Отмените продажу до этого времени: токены вернутся на баланс.`,
    sale_paid: (p) => `Продажа выплачена: ${p.amount_ton} ${COIN} отправлены на ваш кошелёк.`,
    friend_joined: (p) => `${p.name} присоединился к AXIOM по вашей ссылке.`,
    farming_used: (p) => `${p.name} использовал вашу ссылку фарминга: бонд на ${p.amount} AXIOM.`,
  },
  cancelSale: 'Отменить продажу',
  openApp: 'Открыть AXIOM',
  invitation: { title: 'Приглашение в AXIOM', text: 'Присоединяйся ко мне в AXIOM: бонды, стейкинг и награды в AXIOM на TON.', button: 'Открыть AXIOM' },
}
