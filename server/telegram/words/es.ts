import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** Spanish. */
export const es: TelegramWords = {
  notices: {
    bond_paid: (p) => `Tu pago llegó: el bono #${p.number ?? p.mint_id} de ${p.amount} AXIOM está activo.`,
    bond_completed: (p) => `Bono #${p.number ?? p.mint_id} completado: ${p.amount} AXIOM y su recompensa están en tu saldo.`,
    stake_completed: (p) => `Stake #${p.number ?? p.stake_id} completado: ${p.amount} AXIOM y su recompensa están en tu saldo.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `Venta #${p.sale_id}: ${p.token_amount} AXIOM por ${p.amount_ton} ${COIN} a ${p.address}. Se está pagando.`
        : `Venta #${p.sale_id}: ${p.token_amount} AXIOM por ${p.amount_ton} ${COIN} a ${p.address}.\n` +
          `Esta dirección es nueva en tu cuenta (no es tu wallet conectada con TON Connect), así que la venta espera hasta ${utcTime(Number(p.release_at))} antes de pagarse. ` +
          `¿No fuiste tú? Cancélala antes: los tokens vuelven a tu saldo.`,
    sale_paid: (p) => `Tu venta se pagó: ${p.amount_ton} ${COIN} enviados a tu wallet.`,
    friend_joined: (p) => `${p.name} se unió a AXIOM con tu enlace.`,
    farming_used: (p) => `${p.name} usó tu enlace de farming: un bono de ${p.amount} AXIOM.`,
  },
  cancelSale: 'Cancelar esta venta',
  openApp: 'Abrir AXIOM',
  invitation: { title: 'Invitación a AXIOM', text: 'Únete a AXIOM conmigo: bonos, staking y recompensas en AXIOM sobre TON.', button: 'Abrir AXIOM' },
}
