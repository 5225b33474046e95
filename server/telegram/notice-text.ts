/** What the backend tells a user in the bot's chat (docs/deploy.md, "Notifications"), in their language. */
import type { NoticeKind } from '../domain/outbox.ts'

export type { NoticeKind }

type Payload = Readonly<Record<string, string | number>>

const TEXTS: Record<'en' | 'ru', Record<NoticeKind, (p: Payload) => string>> = {
  en: {
    bond_paid: (p) => `Your payment arrived: bond #${p.number ?? p.mint_id} for ${p.amount} AXIOM is active.`,
    bond_completed: (p) => `Bond #${p.number ?? p.mint_id} completed: ${p.amount} AXIOM and its reward are on your balance.`,
    stake_completed: (p) => `Stake #${p.number ?? p.stake_id} completed: ${p.amount} AXIOM and its reward are on your balance.`,
    sale_paid: (p) => `Your sale was paid out: ${p.amount_ton} TON sent to your wallet.`,
    friend_joined: (p) => `${p.name} joined AXIOM through your link.`,
    farming_used: (p) => `${p.name} used your farming link: a bond of ${p.amount} AXIOM.`,
  },
  ru: {
    bond_paid: (p) => `Оплата получена: бонд #${p.number ?? p.mint_id} на ${p.amount} AXIOM активен.`,
    bond_completed: (p) => `Бонд #${p.number ?? p.mint_id} завершён: ${p.amount} AXIOM и награда зачислены на баланс.`,
    stake_completed: (p) => `Стейк #${p.number ?? p.stake_id} завершён: ${p.amount} AXIOM и награда зачислены на баланс.`,
    sale_paid: (p) => `Продажа выплачена: ${p.amount_ton} TON отправлены на ваш кошелёк.`,
    friend_joined: (p) => `${p.name} присоединился к AXIOM по вашей ссылке.`,
    farming_used: (p) => `${p.name} использовал вашу ссылку фарминга: бонд на ${p.amount} AXIOM.`,
  },
}

export const noticeText = (kind: NoticeKind, payload: Payload, language: string | null, miniAppLink: string): { text: string; button: { text: string; url: string } | null } => {
  const lang = language?.toLowerCase().startsWith('ru') ? 'ru' : 'en'
  const text = TEXTS[lang][kind]
  return { text: text ? text(payload) : kind, button: { text: lang === 'ru' ? 'Открыть AXIOM' : 'Open AXIOM', url: miniAppLink } }
}
