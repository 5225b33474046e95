import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** Brazilian Portuguese. */
export const ptBr: TelegramWords = {
  notices: {
    bond_paid: (p) => `Seu pagamento chegou: o bond #${p.number ?? p.mint_id} de ${p.amount} AXIOM está ativo.`,
    bond_completed: (p) => `Bond #${p.number ?? p.mint_id} concluído: ${p.amount} AXIOM e a recompensa estão no seu saldo.`,
    stake_completed: (p) => `Stake #${p.number ?? p.stake_id} concluído: ${p.amount} AXIOM e a recompensa estão no seu saldo.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `Venda #${p.sale_id}: ${p.token_amount} AXIOM por ${p.amount_ton} ${COIN} para ${p.address}. O pagamento está em andamento.`
        : `Venda #${p.sale_id}: ${p.token_amount} AXIOM por ${p.amount_ton} ${COIN} para ${p.address}.\n` +
          `Este endereço é novo na sua conta (não é a carteira conectada com TON Connect), então a venda espera até ${utcTime(Number(p.release_at))} para ser paga. ` +
          `Não foi você? Cancele antes disso: os tokens voltam para o seu saldo.`,
    sale_paid: (p) => `Sua venda foi paga: ${p.amount_ton} ${COIN} enviados para sua carteira.`,
    friend_joined: (p) => `${p.name} entrou no AXIOM pelo seu link.`,
    farming_used: (p) => `${p.name} usou seu link de farming: um bond de ${p.amount} AXIOM.`,
  },
  cancelSale: 'Cancelar esta venda',
  openApp: 'Abrir AXIOM',
  invitation: { title: 'Convite para o AXIOM', text: 'Entre no AXIOM comigo: bonds, staking e recompensas em AXIOM na TON.', button: 'Abrir AXIOM' },
}
