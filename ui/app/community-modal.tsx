import { useState } from 'react'
import { Button } from '../components/button.tsx'
import { ReferralIcon } from '../components/icons.tsx'
import { Modal } from '../components/modal.tsx'
import { useT } from '../i18n/use-t.ts'
import { useLinkOpener, useUiConfig } from '../lib/host-contexts.ts'

/**
 * The blocking community gate (spec §2, §5): shown while community_participation is false.
 * 'Join the community' opens the community, then becomes 'Done', which reloads the page. The sheet
 * says what the community is and why joining is asked; once the link has opened, what to do next.
 */
export function CommunityModal({ open }: { readonly open: boolean }) {
  const t = useT()
  const { communityUrl } = useUiConfig()
  const openLink = useLinkOpener()
  const [opened, setOpened] = useState(false)
  return (
    <Modal
      open={open}
      icon={<ReferralIcon size={30} />}
      title={t('community.title')}
      testId="community-modal"
      actions={
        opened ? (
          <Button block onClick={() => window.location.reload()} testId="community-done" data-autofocus>
            {t('community.done')}
          </Button>
        ) : (
          <Button
            block
            onClick={() => {
              openLink(communityUrl)
              setOpened(true)
            }}
            testId="community-join"
            data-autofocus
          >
            {t('community.join')}
          </Button>
        )
      }
    >
      {opened ? (
        <p className="muted" role="status" data-testid="community-next">
          <strong>{t('community.next')}</strong>
        </p>
      ) : (
        <>
          <p className="muted" data-testid="community-about">
            {t('community.about')}
          </p>
          <p className="muted" data-testid="community-why">
            {t('community.why')}
          </p>
        </>
      )}
    </Modal>
  )
}
