import type { Mint } from '../../../core/index.ts'

/**
 * Which actions a bond row offers. The view model decides what can be staked (`BondListState.stakeableMints`:
 * active ones); a bond can be cancelled while it is pending or active (spec §4: mints can be cancelled;
 * the server has the last word).
 */
export const canCancelMint = (m: Pick<Mint, 'status'>): boolean => m.status === 'pending' || m.status === 'active'
