import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** Farsi (figures and addresses as they are, in Latin digits). */
export const fa: TelegramWords = {
  notices: {
    bond_paid: (p) => `پرداخت شما رسید: باند #${p.number ?? p.mint_id} به مقدار ${p.amount} AXIOM فعال است.`,
    bond_completed: (p) => `باند #${p.number ?? p.mint_id} تمام شد: ${p.amount} AXIOM و پاداشش در موجودی شماست.`,
    stake_completed: (p) => `استیک #${p.number ?? p.stake_id} تمام شد: ${p.amount} AXIOM و پاداشش در موجودی شماست.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `فروش #${p.sale_id}: ${p.token_amount} AXIOM در برابر ${p.amount_ton} ${COIN} به ${p.address}. در حال پرداخت است.`
        : `فروش #${p.sale_id}: ${p.token_amount} AXIOM در برابر ${p.amount_ton} ${COIN} به ${p.address}.\n` +
          `این نشانی برای حساب شما تازه است (کیف پولی نیست که با TON Connect وصل کرده‌اید)، پس فروش تا ${utcTime(Number(p.release_at))} پیش از پرداخت صبر می‌کند. ` +
          `شما نبودید؟ پیش از آن لغوش کنید: توکن‌ها به موجودی شما برمی‌گردند.`,
    sale_paid: (p) => `فروش شما پرداخت شد: ${p.amount_ton} ${COIN} به کیف پول شما ارسال شد.`,
    friend_joined: (p) => `${p.name} با لینک شما به AXIOM پیوست.`,
    farming_used: (p) => `${p.name} از لینک فارمینگ شما استفاده کرد: باندی به مقدار ${p.amount} AXIOM.`,
  },
  cancelSale: 'لغو این فروش',
  openApp: 'باز کردن AXIOM',
  invitation: { title: 'دعوت به AXIOM', text: 'با من به AXIOM بپیوند: باند، استیکینگ و پاداش AXIOM روی TON.', button: 'باز کردن AXIOM' },
}
