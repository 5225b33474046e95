import type { Mint } from '../../../core/index.ts'
import { Section } from '../../components/section.tsx'
import { useT } from '../../i18n/use-t.ts'
import { RecordRow } from '../bonds/record-row.tsx'

/**
 * The kept dashboard's bonds, as the list showed them when it was kept: the rows alone, with none of
 * their actions (cancel, stake), which wait for the fresh list (ui/features/bonds/mints-list.tsx).
 * Loaded only when a kept dashboard is on show.
 */
export function KeptBonds({ mints }: { readonly mints: ReadonlyArray<Mint> }) {
  const t = useT()
  if (mints.length === 0) return null
  return (
    <Section title={t('dashboard.bonds')}>
      <ul className="record-list" data-testid="kept-mints-list" aria-busy="true">
        {mints.map((m) => (
          <RecordRow key={m.id} record={m} kind="mint" />
        ))}
      </ul>
    </Section>
  )
}
