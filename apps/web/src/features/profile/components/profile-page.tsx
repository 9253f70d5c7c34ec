import * as Tabs from '@radix-ui/react-tabs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useUser } from '../../../lib/api/get-user.ts';
import { directionOf } from '../../../lib/i18n.ts';
import { PageHeader } from '../../../components/ui/card.tsx';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { AccountSection, PasswordSection } from './account-section.tsx';
import { AlignmentsSection, UsageSection } from './usage-section.tsx';
import { LexiconSection, NotificationsSection, PreferencesSection } from './preferences-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { ApiTokensSection } from './api-tokens-section.tsx';
import { DangerZone, ExportSection } from './data-section.tsx';

const TABS = ['account', 'security', 'usage', 'preferences', 'sessions', 'data'] as const;
type Tab = (typeof TABS)[number];

export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const { user } = useUser();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'account';
  if (!user) return null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader
        title={t('profile.title')}
        subtitle={
          <span className="flex items-center gap-3">
            <Avatar user={user} />
            <span dir="auto">{user.name}</span>
          </span>
        }
      />
      <Tabs.Root
        value={tab}
        onValueChange={(v) => setParams({ tab: v }, { replace: true, preventScrollReset: true })}
        orientation="vertical"
        dir={directionOf(i18n.language)}
        className="grid grid-cols-[minmax(0,1fr)] gap-6 md:grid-cols-[13rem_minmax(0,1fr)]"
      >
        <Tabs.List
          aria-label={t('profile.title')}
          className="scroll-cue-x flex min-w-0 gap-1 overflow-x-auto md:flex-col"
        >
          {TABS.map((name) => (
            <Tabs.Trigger
              key={name}
              value={name}
              className="rounded-lg px-3 py-2 text-start text-sm font-medium whitespace-nowrap text-muted hover:text-fg data-[state=active]:bg-surface-2 data-[state=active]:text-fg"
            >
              {t(`profile.tabs.${name}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <div className="min-w-0">
          <Tabs.Content value="account" className="space-y-6">
            <AccountSection user={user} />
          </Tabs.Content>
          <Tabs.Content value="security" className="space-y-6">
            <PasswordSection />
          </Tabs.Content>
          <Tabs.Content value="usage" className="space-y-6">
            <UsageSection user={user} />
            <AlignmentsSection />
          </Tabs.Content>
          <Tabs.Content value="preferences" className="space-y-6">
            <PreferencesSection user={user} />
            <LexiconSection />
            <NotificationsSection user={user} />
          </Tabs.Content>
          <Tabs.Content value="sessions" className="space-y-6">
            <SessionsSection />
            <ApiTokensSection />
          </Tabs.Content>
          <Tabs.Content value="data" className="space-y-6">
            <ExportSection />
            <DangerZone />
          </Tabs.Content>
        </div>
      </Tabs.Root>
    </div>
  );
}
