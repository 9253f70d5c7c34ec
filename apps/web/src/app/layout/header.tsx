import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { UI_LANGUAGES } from '@tazamun/contracts/limits';
import { useSignOutAndLeave } from '../../lib/auth.ts';
import { useUser } from '../../lib/api/get-user.ts';
import { changeLanguage } from '../../lib/i18n.ts';
import { useUiStore } from '../../stores/ui-store.ts';
import { ButtonLink } from '../../components/ui/button.tsx';
import { CloseIcon, MenuIcon } from '../../components/ui/icons.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import {
  Brand,
  LANGUAGE_NAMES,
  LanguageMenu,
  NavLinks,
  NotificationBell,
  ThemeToggle,
  UserMenu,
} from './header-controls.tsx';

function MobileMenu() {
  const { t, i18n } = useTranslation();
  const open = useUiStore((s) => s.mobileMenuOpen);
  const setOpen = useUiStore((s) => s.setMobileMenuOpen);
  const theme = useUiStore((s) => s.theme);
  const toggleTheme = useUiStore((s) => s.toggleTheme);
  const { user } = useUser();
  const logoutAndLeave = useSignOutAndLeave();
  const item = 'block rounded-lg px-3 py-2 text-sm font-medium text-fg hover:bg-surface-2';
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        className="inline-flex size-10 items-center justify-center rounded-lg text-fg hover:bg-surface-2 md:hidden"
        aria-label={t('header.openMenu')}
      >
        <MenuIcon />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 end-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-4 overflow-y-auto border-s border-border bg-surface p-5 shadow-2xl md:hidden"
        >
          <div className="flex items-center justify-between">
            <Dialog.Title className="font-semibold text-fg">{t('header.menu')}</Dialog.Title>
            <Dialog.Close className="text-muted hover:text-fg" aria-label={t('common.close')}>
              <CloseIcon />
            </Dialog.Close>
          </div>
          {user && (
            <div className="flex items-center gap-3 rounded-xl bg-surface-2 p-3">
              <Avatar user={user} size={40} />
              <div className="min-w-0">
                <p className="truncate font-medium" dir="auto">
                  {user.name}
                </p>
                <p className="truncate text-xs text-muted" dir="ltr" data-testid="mobile-user-email">
                  {user.email}
                </p>
              </div>
            </div>
          )}
          <NavLinks vertical user={user} />
          <div className="h-px bg-border" />
          {user ? (
            <div className="flex flex-col gap-1">
              <NavLink to="/dashboard" className={item}>
                {t('nav.dashboard')}
              </NavLink>
              <NavLink to="/lexicon" className={item}>
                {t('nav.lexicon')}
              </NavLink>
              <NavLink to="/profile" className={item}>
                {t('nav.profile')}
              </NavLink>
              <NavLink to="/settings" className={item}>
                {t('nav.settings')}
              </NavLink>
              {user.role === 'admin' && (
                <>
                  <p className="mt-2 px-3 text-xs font-semibold tracking-wide text-muted uppercase">
                    {t('nav.admin')}
                  </p>
                  <NavLink to="/admin/accounts" className={item}>
                    {t('nav.adminAccounts')}
                  </NavLink>
                  <NavLink to="/admin/jobs" className={item}>
                    {t('nav.adminJobs')}
                  </NavLink>
                  <div className="my-1 h-px bg-border" />
                </>
              )}
              <button
                type="button"
                className={`${item} text-start text-danger`}
                onClick={() => void logoutAndLeave()}
              >
                {t('nav.logout')}
              </button>
            </div>
          ) : (
            <div className="flex flex-col gap-2">
              <ButtonLink to="/auth" variant="secondary">
                {t('nav.login')}
              </ButtonLink>
              <ButtonLink to="/auth?view=register">{t('nav.register')}</ButtonLink>
            </div>
          )}
          <div className="h-px bg-border" />
          <div>
            <p className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
              {t('header.language')}
            </p>
            <div className="grid grid-cols-3 gap-1">
              {UI_LANGUAGES.map((lang) => (
                <button
                  key={lang}
                  type="button"
                  lang={lang}
                  onClick={() => void changeLanguage(lang)}
                  aria-pressed={i18n.language === lang}
                  className={`rounded-lg px-2 py-2 text-sm ${
                    i18n.language === lang ? 'bg-accent text-accent-fg' : 'bg-surface-2 text-fg'
                  }`}
                >
                  {LANGUAGE_NAMES[lang]}
                </button>
              ))}
            </div>
          </div>
          <button type="button" onClick={toggleTheme} className={`${item} bg-surface-2 text-start`}>
            {theme === 'dark' ? t('header.themeToLight') : t('header.themeToDark')}
          </button>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function Header() {
  const { t } = useTranslation();
  const { user } = useUser();
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-bg/85 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Brand />
        <div className="hidden min-w-0 md:block">
          <NavLinks user={user} />
        </div>
        <div className="flex items-center gap-1">
          <div className="hidden items-center gap-1 md:flex">
            <LanguageMenu />
            <ThemeToggle />
          </div>
          {user && <NotificationBell />}
          <div className="hidden md:block">
            {user ? (
              <UserMenu user={user} />
            ) : (
              <div className="flex items-center gap-2 ps-2">
                <Link
                  to="/auth"
                  className="rounded-lg px-3 py-2 text-sm font-medium text-fg hover:bg-surface-2"
                >
                  {t('nav.login')}
                </Link>
                <ButtonLink to="/auth?view=register" size="sm">
                  {t('nav.register')}
                </ButtonLink>
              </div>
            )}
          </div>
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
