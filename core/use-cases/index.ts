import { Effect } from 'effect'
import { positiveAmount } from '../domain/amount-input.ts'
import { activePlansByDays } from '../domain/bond-plans.ts'
import { CANDLE_INTERVAL_SECONDS, CANDLES_PER_CHART, HISTORY_PAGE_SIZE } from '../domain/constants.ts'
import type { CandleInterval, CurrentCandle } from '../domain/entities/market.ts'
import type { FarmingLinkId, MintId } from '../domain/entities/primitives.ts'
import { keepNewestPending } from '../domain/pending-records.ts'
import { openCandleSocket, openMainSocket } from '../live/product-sockets.ts'
import type { LiveEvent } from '../live/live-events.ts'
import type { SocketStatus } from '../live/reconnecting-socket.ts'
import type { CreateOptions } from '../ports/axiom-api.port.ts'
import { nowSeconds } from '../ports/clock.port.ts'
import type { CorePorts } from '../ports/core-ports.ts'
import { STORAGE_KEYS } from '../ports/key-value-store.port.ts'
import type { WalletAccount } from '../ports/wallet.port.ts'
import { type FundingSource, fundingFlags } from '../domain/funding-source.ts'
import { authenticate } from './authenticate.ts'
import { checkFarmCode } from './check-farm-code.ts'
import { checkMaintenance } from './check-maintenance.ts'
import { connectWallet } from './connect-wallet.ts'
import { loadedOnFirstCall } from './loaded-on-first-call.ts'
import { offerBotMessages } from './offer-bot-messages.ts'
import { readWalletBalance } from './read-wallet-balance.ts'
import { restoreWallet } from './restore-wallet.ts'

/**
 * Every use case of the product, bound to its ports: the one list a front end calls. An entry that
 * only forwards to the API is written here; one with behaviour lives in a file named by its verb.
 * Those of the steps and screens a user reaches after the dashboard (paying for a bond, selling,
 * creating farming links, tasks, referrals) load their file on their first call (`loadedOnFirstCall`).
 * Failures come back typed and unreported: the app adds the §8 policy with `withErrorPolicy`
 * (core/error-policy.ts), the CLI turns them into exit codes.
 */
export const useCases = (ports: CorePorts) => {
  const { api, clock, storage, platform, session, notifier, wallet, chain, sockets, clipboard, transactionValiditySeconds } = ports
  const mintRecords = () => api.mints().pipe(Effect.map((page) => [...page.items]))
  const stakeRecords = () => api.stakes().pipe(Effect.map((page) => [...page.items]))
  return {
    // Signing in, the user, maintenance, the live feeds (spec §4)
    authenticate: () => authenticate({ api, session, storage, platform }),
    checkMaintenance: () => checkMaintenance({ api }),
    /** The signed-in user's data and balances (spec §3). */
    loadUser: () => api.me(),
    /** The main socket (balances, bonds, stakes, prices); a refused token is renewed by calling the API, which refreshes it. */
    openLiveFeed: (onEvent: (e: LiveEvent) => void, onStatus: (s: SocketStatus) => void) =>
      openMainSocket({ sockets, session, refreshSession: () => Effect.runPromise(Effect.result(api.me())) }, onEvent, onStatus),
    /** The candle socket of the price chart. */
    openCandleFeed: (onCandle: (c: CurrentCandle) => void) => openCandleSocket({ sockets }, onCandle),

    // Bonds and stakes (spec §4)
    /** The bond plans a user may pick: active ones, sorted by days (spec §9). */
    loadBondPlans: () => api.mintPlans().pipe(Effect.map(activePlansByDays)),
    /** The user's mints, with only the newest pending one under 3 minutes old kept. */
    loadMints: () => mintRecords().pipe(Effect.map((items) => keepNewestPending(items, nowSeconds(clock)))),
    /** The user's stakes, with the same pending rule. */
    loadStakes: () => stakeRecords().pipe(Effect.map((items) => keepNewestPending(items, nowSeconds(clock)))),
    /**
     * Every mint, pending ones included, for a view model that keeps the list and applies the
     * pending rule when it shows it: a pending bond hidden by a newer pending one shows again once
     * that one is paid, as it does in a list read afresh.
     */
    loadMintRecords: mintRecords,
    /** Every stake, pending ones included (as `loadMintRecords`). */
    loadStakeRecords: stakeRecords,
    /** A preview of a bond of `amount` for `days` (spec §7 GET /mint/calculate). */
    quoteBond: (amount: number, days: number) =>
      positiveAmount('amount', amount).pipe(Effect.andThen(api.calculateMint({ amount, freeze_days: days }))),
    /** A pending bond and the payment that activates it, for a wallet the app does not hold (the CLI prints it). */
    orderBond: (amount: number, days: number, options?: CreateOptions) =>
      positiveAmount('amount', amount).pipe(Effect.andThen(api.createMint({ amount, days }, options))),
    buyBond: loadedOnFirstCall(() =>
      import('./buy-bond.ts').then(({ buyBond }) =>
        buyBond({ api, wallet, chain, clock, notifier, platform, ...(transactionValiditySeconds ? { validitySeconds: transactionValiditySeconds } : {}) }),
      ),
    ),
    /** The connected wallet's coin balance for the bond form's Max; `unavailable` when the chain cannot be read, never an error. */
    readWalletBalance: readWalletBalance({ wallet, chain }),
    /** Once a payment went out: asks, once, to let the bot tell the user about their bonds. */
    offerBotMessages: offerBotMessages({ platform, storage }),
    cancelBond: (id: MintId) => api.cancelMint(id),
    /** A preview of staking a mint (spec §7 GET /staking/calculate). */
    quoteStake: (mintId: MintId) => api.calculateStake({ staking_id: mintId }),
    stakeMint: (mintId: MintId, options?: CreateOptions) => api.createStake({ mint_id: mintId }, options),

    // Farming links (spec §4)
    /** Farming plans for links funded from `source`, with what that balance holds. */
    loadFarmingPlans: (source: FundingSource) => api.farmingPlans(fundingFlags(source)),
    loadFarmingLinks: () => api.farmingLinks().pipe(Effect.map((page) => page.items)),
    /** A preview of the bond each activation of a link gives, funded from `source`. */
    quoteFarming: (amount: number, days: number, source: FundingSource) =>
      api.calculateFarming({ amount, freeze_days: days, ...fundingFlags(source) }),
    createFarmingLink: loadedOnFirstCall(() => import('./create-farming-link.ts').then(({ createFarmingLink }) => createFarmingLink({ api }))),
    cancelFarmingLink: (id: FarmingLinkId) => api.cancelFarmingLink(id),
    /** Runs on the open a farm code started (spec §4), so its code comes with the core's. */
    checkFarmCode: checkFarmCode({ api, storage }),

    // Selling and the referral balance
    /** What a sale of `amount` tokens pays out, after the fee. */
    quoteSale: (amount: number) =>
      positiveAmount('token_amount', amount).pipe(Effect.andThen(api.calculateWithdraw({ token_amount: amount }))),
    sellTokens: loadedOnFirstCall(() => import('./sell-tokens.ts').then(({ sellTokens }) => sellTokens({ api }))),
    /** Moves referral balance into the main balance. */
    transferReferralBalance: (amount: number, options?: CreateOptions) =>
      positiveAmount('token_amount', amount).pipe(Effect.andThen(api.transferFromReferral({ token_amount: amount }, options))),
    /** One page of withdraw history, 10 a page, newest first (spec §7, §9). */
    loadWithdrawHistory: (page: number) => api.withdrawHistory({ page, limit: HISTORY_PAGE_SIZE }),
    /** One page of the operations history, asked for by page and size (spec §7, §9). */
    loadOperationsHistory: (page: number) => api.operationsHistory({ page, size: HISTORY_PAGE_SIZE }),

    // Tasks (spec §4)
    loadTasks: () => api.tasks(),
    advanceTask: loadedOnFirstCall(() => import('./advance-task.ts').then(({ advanceTask }) => advanceTask({ api }))),

    // Referrals and sharing (spec §2, §5)
    /** A page of the referral list (1 by default) with its total and badge. */
    loadReferrals: loadedOnFirstCall(() =>
      import('./load-referrals.ts').then(({ loadReferrals }) => (page?: number) => loadReferrals({ api, storage }, page)),
    ),
    /** Remembers how many referrals the user has seen, which clears the badge. */
    markReferralsSeen: (count: number) => storage.set(STORAGE_KEYS.lastRefCount, String(count)),
    inviteFriends: loadedOnFirstCall(() => import('./invite-friends.ts').then(({ inviteFriends }) => inviteFriends({ api, platform }))),
    /** Puts text on the clipboard: true when it is there. */
    copyText: (text: string) => Effect.promise(() => clipboard?.writeText(text) ?? Promise.resolve(false)),

    // The market (spec §2)
    loadPrice: () => api.currentPrice(),
    /** The latest candles of an interval, enough to fill a chart. */
    loadCandles: (interval: CandleInterval) => {
      const to = nowSeconds(clock)
      return api.candles({ interval, from_timestamp: to - CANDLE_INTERVAL_SECONDS[interval] * CANDLES_PER_CHART, to_timestamp: to })
    },
    loadFinancialStats: () => api.financialStats(),

    // The TON wallet (spec §4, §5)
    restoreWallet: () => restoreWallet({ wallet, clock }),
    connectWallet: () => connectWallet({ wallet, api }),
    /** Disconnects; disconnecting while not connected is an error (spec §4). */
    disconnectWallet: () => wallet.disconnect(),
    onAccountChange: (listener: (account: WalletAccount | null) => void) => wallet.onAccountChange(listener),
  }
}

/** Every use case, as a front end holds them; a view model takes the `Pick` it needs. */
export type UseCases = ReturnType<typeof useCases>
