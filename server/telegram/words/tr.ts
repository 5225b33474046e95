import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** Turkish. */
export const tr: TelegramWords = {
  notices: {
    bond_paid: (p) => `Ödemeniz ulaştı: ${p.amount} AXIOM tutarındaki tahvil #${p.number ?? p.mint_id} aktif.`,
    bond_completed: (p) => `Tahvil #${p.number ?? p.mint_id} tamamlandı: ${p.amount} AXIOM ve ödülü bakiyenizde.`,
    stake_completed: (p) => `Stake #${p.number ?? p.stake_id} tamamlandı: ${p.amount} AXIOM ve ödülü bakiyenizde.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `Satış #${p.sale_id}: ${p.token_amount} AXIOM karşılığı ${p.amount_ton} ${COIN}, alıcı ${p.address}. Ödeme yapılıyor.`
        : `Satış #${p.sale_id}: ${p.token_amount} AXIOM karşılığı ${p.amount_ton} ${COIN}, alıcı ${p.address}.\n` +
          `Bu adres hesabınız için yeni (TON Connect ile bağlı cüzdanınız değil), bu yüzden satış ödenmeden önce ${utcTime(Number(p.release_at))} zamanına kadar bekler. ` +
          `Siz değil misiniz? O zamandan önce iptal edin: tokenler bakiyenize geri döner.`,
    sale_paid: (p) => `Satışınız ödendi: ${p.amount_ton} ${COIN} cüzdanınıza gönderildi.`,
    friend_joined: (p) => `${p.name} bağlantınızla AXIOM’a katıldı.`,
    farming_used: (p) => `${p.name} farming bağlantınızı kullandı: ${p.amount} AXIOM tutarında bir tahvil.`,
  },
  cancelSale: 'Bu satışı iptal et',
  openApp: 'AXIOM’u aç',
  invitation: { title: 'AXIOM’a davet', text: 'AXIOM’da bana katıl: TON üzerinde tahvil, staking ve AXIOM ödülleri.', button: 'AXIOM’u aç' },
}
