// Not through core/index.ts, like en.ts: a catalogue must not wait for the core's chunk.
import { userMessage } from '../../core/error-messages.ts'
import type { AppError } from '../../core/errors.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { BootMessages } from './en.ts'

/** Brazilian Portuguese, for every Portuguese language_code ("você"), the first screens' texts (the other screens' are in a chunk of their own, pt-br-screens.ts): the two types require every English key. */
export const ptBr: BootMessages = {
  'mint.paymentSeen': 'Pagamento detectado',
  'app.name': 'AXIOM',
  'common.loading': 'Carregando…',
  'common.close': 'Fechar',
  'common.cancel': 'Cancelar',
  'common.notFound': 'Esta página não existe',
  'common.toDashboard': 'Ir para o início',

  'nav.label': 'Navegação principal',
  'nav.bond': 'Bond AXIOM',
  'nav.staking': 'Staking',
  'nav.dashboard': 'Início',
  'nav.referral': 'Indicações',
  'nav.tasks': 'Tarefas',
  'nav.invite': 'Convidar amigos',
  'nav.copyLink': 'Copiar link de indicação',
  'toast.region': 'Notificações',
  'toast.dismiss': 'Dispensar',

  'loader.label': 'Carregando AXIOM',
  'maintenance.title': 'Estamos em manutenção',
  'maintenance.body': 'Volte mais tarde',
  'failed.title': 'Algo deu errado',
  'failed.body': 'Não foi possível carregar o AXIOM. Verifique sua conexão e tente de novo.',
  'failed.retry': 'Tentar de novo',
  'outside.title': 'Abra o AXIOM no Telegram',
  'outside.body': 'O AXIOM é um mini app do Telegram. Levando você ao bot…',
  'outside.open': 'Abrir o bot',
  'manifest.opening': 'Abrindo o manifesto…',

  'community.title': 'Entre na comunidade para usar o AXIOM',
  'community.join': 'Entrar na comunidade',
  'community.done': 'Pronto',

  'balance.main': 'Saldo principal',
  'balance.referral': 'Saldo de indicações',
  'balance.task': 'Saldo de tarefas',
  'dashboard.earnedToday': 'Ganho hoje',
  'dashboard.price': 'Preço do AXIOM',
  'dashboard.change24h': '24h',
  'dashboard.change30d': '30d',
  'dashboard.chart': 'Gráfico de preço',
  'dashboard.interval': 'Intervalo do gráfico',
  'dashboard.chartEmpty': 'Ainda não há dados de preço',
  'dashboard.chartCredit': 'Gráfico por TradingView',
  'dashboard.history': 'Histórico',
  'dashboard.rebond': 'Rebonding',
  'dashboard.sell': 'Vender',
  'dashboard.interval.5m': '5m',
  'dashboard.interval.30m': '30m',
  'dashboard.interval.1h': '1h',
  'dashboard.interval.4h': '4h',
  'dashboard.interval.1d': '1d',

  // O último painel, guardado no aparelho e mostrado antes do login, com a sua idade.
  'dashboard.kept.s': 'Atualizado há {n} s',
  'dashboard.kept.min': 'Atualizado há {n} min',
  'dashboard.kept.h': 'Atualizado há {n} h',
  'dashboard.kept.d': 'Atualizado há {n} d',

  'wallet.label': 'Carteira {address}',
  'wallet.disconnectTitle': 'Desconectar carteira?',
  'wallet.disconnectBody': 'A carteira {address} será desconectada. Você pode conectá-la de novo a qualquer momento.',
  'wallet.disconnect': 'Desconectar',

  'community.about': 'A comunidade AXIOM é o nosso grupo no Telegram: novidades, novas condições de bonds e respostas da equipe.',
  'community.why': 'O AXIOM é para seus membros: entrar é como o app sabe que você é uma pessoa real, e é grátis.',
  'community.next': 'Já entrou? Toque em Pronto para continuar.',
  'dashboard.welcomePart': 'Desse total, {amount} AXIOM são tokens de boas-vindas: só para bonds, não podem ser vendidos.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
}

type ErrorWords = { readonly [K in AppError['_tag']]?: (e: Extract<AppError, { _tag: K }>) => string }

/** Portuguese for the §8 errors; a server's own message keeps its words. The rest read in English. */
const PT_BR_ERRORS: ErrorWords = {
  ServerFailed: (e) => `Erro: ${e.msg}`,
  RequestRejected: (e) => `Erro: ${e.msg}`,
  InvalidInput: (e) => `Erro: ${e.msg}`,
  UnderMaintenance: () => 'Erro: estamos em manutenção',
  TooManyRequests: (e) => `Erro: ${e.msg}`,
  PayloadTooLarge: () => 'Erro: o arquivo é grande demais! Envie um arquivo menor.',
  NetworkError: () => 'Erro: falha de rede! Código: ERR_NETWORK',
  Timeout: () => 'Erro: tempo esgotado!',
  MalformedResponse: () => 'Erro: resposta inesperada do servidor',
  WalletNotConnected: () => 'A carteira não foi conectada',
  WalletConnectionDeclined: () => 'A carteira não foi conectada',
  TransactionNotSent: () => 'A transação não foi enviada',
  WalletNotConnectedToDisconnect: () => 'A carteira não está conectada',
  WalletRestoreFailed: () => 'A conexão não foi restaurada',
  WalletBoundElsewhere: () => 'Esta carteira está vinculada a outra conta AXIOM, por isso foi desconectada. Conecte uma carteira sua.',
  WalletNotVerified: () => 'A carteira não conseguiu provar que é sua, por isso foi desconectada. Conecte-a de novo.',
  OutsidePlatform: () => 'Abra o AXIOM dentro do Telegram',
}

const ptBrError = (e: AppError): string => (PT_BR_ERRORS[e._tag] as ((e: AppError) => string) | undefined)?.(e) ?? userMessage(e)

/** Brazilian Portuguese notices (toasts). */
export const ptBrNotices: NoticeTable = {
  error: (n) => ptBrError(n.error),
  bondCreated: (n) => (n.viaFarming ? 'Novo bond criado via farming' : 'Novo bond criado'),
  stakeCreated: () => 'Novo stake criado',
  transactionProcessing: () => 'A transação está sendo processada',
  sold: () => 'Venda criada',
  transferred: () => 'Transferido para o saldo principal',
  copied: (n) => (n.what === 'referralLink' ? 'Link de indicação copiado' : 'Copiado para a área de transferência'),
  copyFailed: () => 'Não foi possível copiar. Selecione o texto e copie manualmente.',
}
