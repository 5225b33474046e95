import type { Words } from './words.ts'

/** The bot in Spanish. */
export const es: Words = {
  start: 'Te damos la bienvenida a AXIOM: bonos, staking y recompensas en AXIOM sobre TON. Abre la app para empezar.',
  startWithParam: '¡Te damos la bienvenida a AXIOM! Te invitaron: abre la app para unirte.',
  open: 'Abrir AXIOM',
  menu: 'AXIOM',
  help: 'Comandos:\n/start – abrir la app AXIOM\n/balance – tus saldos\n/bonds – tus bonos y stakes\n/notifications on|off – mensajes sobre tus bonos, ventas y amigos\n/help – esta lista',
  balance: (b) => `Tus saldos\nSaldo principal: ${b.token} AXIOM\nSaldo de tareas: ${b.task} AXIOM\nSaldo de referidos: ${b.referral} AXIOM`,
  noRecords: 'Aún no tienes bonos ni stakes. Abre la app para comprar un bono.',
  bond: 'Bono',
  stake: 'Stake',
  reward: 'recompensa',
  notificationsOn: 'Notificaciones activadas.',
  notificationsOff: 'Notificaciones desactivadas.',
  notificationsUsage: 'Usa /notifications on o /notifications off.',
  unavailable: 'AXIOM no está disponible ahora. Inténtalo en un minuto.',
  saleCancelled: (s) =>
    `La venta #${s.id} a ${s.address} se canceló: no se envió nada y ${s.token_amount} AXIOM volvieron a tu saldo ${s.from_ref_balance ? 'de referidos' : 'principal'}.`,
  saleCancelledShort: 'Venta cancelada: tus tokens volvieron.',
  saleAlreadyCancelled: 'Esta venta ya estaba cancelada.',
  saleNotWaiting: 'Esta venta ya no se puede cancelar: su espera terminó y se está pagando.',
  saleNotYours: 'Esta venta no es tuya.',
  commands: { start: 'Abrir la app AXIOM', balance: 'Tus saldos', bonds: 'Tus bonos y stakes', notifications: 'Activar o desactivar avisos', help: 'Qué hace el bot' },
}
