import { balances, history, me } from './account.ts'
import { cancel, mints, plans, stake, stakes } from './bonds.ts'
import { bond } from './buy-bond.ts'
import type { Command } from './command.ts'
import { farmActivate, farmCancel, farmCreate, farmList } from './farming.ts'
import { candles, price } from './market.ts'
import { referrals } from './referrals.ts'
import { sell, transfer } from './selling.ts'
import { login, logout } from './session.ts'
import { tasks, taskStep } from './tasks.ts'
import { walletConnect, walletDisconnect, walletStatus } from './wallet.ts'
import { watchCommand } from './watch.ts'

export type { Command, Parsed } from './command.ts'
export { signIn } from './session.ts'

/** Every command, in the order `axiom help` lists them; each group's commands live in its own file. */
export const COMMANDS: ReadonlyArray<Command> = [
  login,
  me,
  balances,
  mints,
  stakes,
  plans,
  bond,
  walletConnect,
  walletStatus,
  walletDisconnect,
  cancel,
  stake,
  farmCreate,
  farmList,
  farmCancel,
  farmActivate,
  sell,
  transfer,
  tasks,
  taskStep('start'),
  taskStep('validate'),
  taskStep('claim'),
  referrals,
  price,
  candles,
  history,
  watchCommand,
  logout,
]

/** Commands that take a sub-command word. */
export const GROUPS: ReadonlyArray<string> = ['farm', 'tasks', 'wallet']
