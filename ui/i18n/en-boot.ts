/**
 * The English texts the entry keeps: the boot-failure screen's (ui/boot-failure.ts), for when no
 * catalogue could be loaded, not even English's. English's catalogue (en.ts, which includes these)
 * is a chunk of its own like every other language's.
 */
export const enBoot = {
  'failed.title': 'Something went wrong',
  'failed.body': 'AXIOM could not load. Check your connection and try again.',
  'failed.retry': 'Try again',
} as const
