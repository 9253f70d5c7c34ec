// Header controls shared by the desktop bar and the mobile menu.
import { useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router';
import { UI_LANGUAGES } from '@tazamun/contracts/limits';
import type { UiLanguage } from '@tazamun/contracts/limits';
import type { User } from '@tazamun/contracts/auth';
import { changeLanguage, currentLanguage } from '../../lib/i18n.ts';
import { useSignOutAndLeave } from '../../lib/auth.ts';
import { Avatar } from '../../components/ui/avatar.tsx';
import { usePublicConfig } from '../../lib/api/get-public-config.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useUiStore } from '../../stores/ui-store.ts';
import {
  BellIcon,
  ChevronDownIcon,
  CloseIcon,
  DashboardIcon,
  FolderIcon,
  GaugeIcon,
  GlobeIcon,
  LanguagesIcon,
  LogoutIcon,
  MoonIcon,
  SettingsIcon,
  ShieldIcon,
  SunIcon,
  UploadIcon,
  UserIcon,
} from '../../components/ui/icons.tsx';

export const LANGUAGE_NAMES: Record<UiLanguage, string> = { ar: 'العربية', fr: 'Français', en: 'English' };

const MENU_CONTENT =
  'z-50 min-w-52 rounded-xl border border-border bg-surface p-1.5 text-sm text-fg shadow-xl data-[state=open]:animate-in';
const MENU_ITEM =
  'flex cursor-pointer select-none items-center gap-2.5 rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-surface-2';
const ICON_BUTTON =
  'inline-flex size-10 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-fg';

export function Brand() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const [logoFailed, setLogoFailed] = useState(false);
  const org = config.data;
  return (
    <div className="flex min-w-0 items-center gap-2">
      <Link to="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-fg">
        <img src="/favicon.svg" alt="" width={28} height={28} className="rounded-md" />
        <span>{t('brand.name')}</span>
      </Link>
      {org?.org_name && (
        <span className="hidden min-w-0 items-center gap-1.5 text-sm text-muted sm:flex">
          <span>{t('brand.by')}</span>
          <a
            href={org.org_url ?? undefined}
            target="_blank"
            rel="noopener noreferrer"
            className="truncate font-medium text-fg/80 hover:text-accent"
            data-testid="org-link"
          >
            {org.org_logo_url && !logoFailed ? (
              <img
                src={org.org_logo_url}
                alt={org.org_name}
                className="h-5 w-auto max-w-28 object-contain"
                onError={() => setLogoFailed(true)}
              />
            ) : (
              <span>{org.org_name}</span>
            )}
          </a>
        </span>
      )}
    </div>
  );
}

export function NavLinks({ vertical = false, user }: { vertical?: boolean; user?: User | null }) {
  const { t } = useTranslation();
  // An approved account works from its projects and starts alignments: both are one click away.
  const working = !!user && (user.is_approved || user.role === 'admin');
  const links = [
    { to: '/', label: t('nav.home'), end: true },
    ...(working
      ? [
          { to: '/projects', label: t('nav.projects'), end: false },
          { to: '/upload', label: t('nav.newAlignment'), end: false },
        ]
      : []),
    { to: '/demos', label: t('nav.demos'), end: false },
    { to: '/about', label: t('nav.about'), end: false },
  ];
  return (
    <nav aria-label={t('nav.main')} className={vertical ? 'flex flex-col gap-1' : 'flex items-center gap-1'}>
      {links.map((link) => (
        <NavLink
          key={link.to}
          to={link.to}
          end={link.end}
          className={({ isActive }) =>
            `rounded-lg px-3 py-2 text-sm font-medium transition-colors ${
              isActive ? 'bg-surface-2 text-fg' : 'text-muted hover:text-fg'
            }`
          }
        >
          {link.label}
        </NavLink>
      ))}
    </nav>
  );
}

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = (i18n.language as UiLanguage) ?? currentLanguage();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className={`${ICON_BUTTON} w-auto gap-1.5 px-2.5`}
        aria-label={t('header.language')}
      >
        <GlobeIcon size={18} />
        <span className="text-xs font-semibold uppercase">{current}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={MENU_CONTENT}>
          <DropdownMenu.RadioGroup
            value={current}
            onValueChange={(v) => void changeLanguage(v as UiLanguage)}
          >
            {UI_LANGUAGES.map((lang) => (
              <DropdownMenu.RadioItem key={lang} value={lang} className={MENU_ITEM} lang={lang}>
                <span className="flex-1">{LANGUAGE_NAMES[lang]}</span>
                <DropdownMenu.ItemIndicator className="text-accent">●</DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useUiStore((s) => s.theme);
  const toggle = useUiStore((s) => s.toggleTheme);
  const label = theme === 'dark' ? t('header.themeToLight') : t('header.themeToDark');
  return (
    <button type="button" className={ICON_BUTTON} onClick={toggle} aria-label={label} title={label}>
      {theme === 'dark' ? <SunIcon size={18} /> : <MoonIcon size={18} />}
    </button>
  );
}

export function NotificationBell() {
  const { t } = useTranslation();
  const notifications = useUiStore((s) => s.notifications);
  const markRead = useUiStore((s) => s.markRead);
  const markAllRead = useUiStore((s) => s.markAllRead);
  const remove = useUiStore((s) => s.removeNotification);
  const clear = useUiStore((s) => s.clearNotifications);
  const unread = notifications.filter((n) => !n.read).length;
  const setOpen = useUiStore((s) => s.setNotificationsOpen);
  return (
    <DropdownMenu.Root modal={false} onOpenChange={setOpen}>
      <DropdownMenu.Trigger className={`${ICON_BUTTON} relative`} aria-label={t('notifications.title')}>
        <BellIcon size={18} />
        {unread > 0 && (
          <span className="absolute end-1.5 top-1.5 flex size-4 items-center justify-center rounded-full bg-accent text-[10px] font-bold text-accent-fg">
            {unread > 9 ? '9+' : unread}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={`${MENU_CONTENT} w-80`}>
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2">
            <p className="font-semibold">{t('notifications.title')}</p>
            {notifications.length > 0 && (
              <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
                <button type="button" className="text-accent hover:underline" onClick={markAllRead}>
                  {t('notifications.markAllRead')}
                </button>
                <button type="button" className="text-muted hover:text-fg" onClick={clear}>
                  {t('notifications.clear')}
                </button>
              </div>
            )}
          </div>
          {notifications.length === 0 ? (
            <p className="px-3 py-6 text-center text-muted">{t('notifications.empty')}</p>
          ) : (
            <ul className="max-h-80 overflow-y-auto">
              {notifications.map((n) => (
                <li
                  key={n.id}
                  className={`flex items-start gap-2 rounded-lg px-3 py-2 ${n.read ? 'opacity-70' : 'bg-surface-2/60'}`}
                >
                  <button type="button" className="flex-1 text-start" onClick={() => markRead(n.id)}>
                    <span className="block font-medium">{n.title}</span>
                    {n.message && <span className="block text-muted">{n.message}</span>}
                    <span className="block text-xs text-muted">
                      {formatDateTime(new Date(n.timestamp).toISOString())}
                    </span>
                  </button>
                  <button
                    type="button"
                    className="text-muted hover:text-fg"
                    onClick={() => remove(n.id)}
                    aria-label={t('notifications.remove')}
                  >
                    <CloseIcon size={14} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logoutAndLeave = useSignOutAndLeave();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className="flex items-center gap-2 rounded-lg py-1 ps-1 pe-2 text-sm text-fg hover:bg-surface-2"
        aria-label={t('header.userMenu')}
      >
        <Avatar user={user} />
        <span className="max-w-36 truncate font-medium" dir="auto">
          {user.name}
        </span>
        <ChevronDownIcon size={16} className="text-muted" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={MENU_CONTENT}>
          <div className="px-3 py-2">
            <p className="truncate font-medium" dir="auto">
              {user.name}
            </p>
            <p className="truncate text-xs text-muted" dir="ltr">
              {user.email}
            </p>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/dashboard')}>
            <DashboardIcon size={16} /> {t('nav.dashboard')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/upload')}>
            <UploadIcon size={16} /> {t('nav.newAlignment')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/projects')}>
            <FolderIcon size={16} /> {t('nav.projects')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/lexicon')}>
            <LanguagesIcon size={16} /> {t('nav.lexicon')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/profile')}>
            <UserIcon size={16} /> {t('nav.profile')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/settings')}>
            <SettingsIcon size={16} /> {t('nav.settings')}
          </DropdownMenu.Item>
          {user.role === 'admin' && (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-border" />
              <DropdownMenu.Label className="px-3 py-1 text-xs font-semibold text-muted">
                {t('nav.admin')}
              </DropdownMenu.Label>
              <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/admin/accounts')}>
                <ShieldIcon size={16} /> {t('nav.adminAccounts')}
              </DropdownMenu.Item>
              <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/admin/jobs')}>
                <GaugeIcon size={16} /> {t('nav.adminJobs')}
              </DropdownMenu.Item>
            </>
          )}
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item className={`${MENU_ITEM} text-danger`} onSelect={() => void logoutAndLeave()}>
            <LogoutIcon size={16} /> {t('nav.logout')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
