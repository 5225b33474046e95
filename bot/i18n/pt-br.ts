import type { Words } from './words.ts'

/** The bot in Brazilian Portuguese. */
export const ptBr: Words = {
  start: 'Boas-vindas ao AXIOM: bonds, staking e recompensas em AXIOM na TON. Abra o app para começar.',
  startWithParam: 'Boas-vindas ao AXIOM! Você foi convidado: abra o app para entrar.',
  open: 'Abrir AXIOM',
  menu: 'AXIOM',
  help: 'Comandos:\n/start – abrir o app AXIOM\n/balance – seus saldos\n/bonds – seus bonds e stakes\n/notifications on|off – mensagens sobre seus bonds, vendas e amigos\n/help – esta lista',
  balance: (b) => `Seus saldos\nSaldo principal: ${b.token} AXIOM\nSaldo de tarefas: ${b.task} AXIOM\nSaldo de indicações: ${b.referral} AXIOM`,
  noRecords: 'Nenhum bond ou stake ainda. Abra o app para comprar um bond.',
  bond: 'Bond',
  stake: 'Stake',
  reward: 'recompensa',
  notificationsOn: 'Notificações ativadas.',
  notificationsOff: 'Notificações desativadas.',
  notificationsUsage: 'Use /notifications on ou /notifications off.',
  unavailable: 'O AXIOM está fora do ar agora. Tente de novo em um minuto.',
  saleCancelled: (s) =>
    `A venda #${s.id} para ${s.address} foi cancelada: nada foi enviado e ${s.token_amount} AXIOM voltaram para o seu saldo ${s.from_ref_balance ? 'de indicações' : 'principal'}.`,
  saleCancelledShort: 'Venda cancelada: seus tokens voltaram.',
  saleAlreadyCancelled: 'Esta venda já foi cancelada.',
  saleNotWaiting: 'Esta venda não pode mais ser cancelada: a espera acabou e ela está sendo paga.',
  saleNotYours: 'Esta venda não é sua.',
  commands: { start: 'Abrir o app AXIOM', balance: 'Seus saldos', bonds: 'Seus bonds e stakes', notifications: 'Ligar ou desligar avisos', help: 'O que o bot faz' },
}
