import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUiStore } from '../../stores/ui-store.ts';
import { GlobalModal } from '../../components/ui/global-modal.tsx';
import { NotificationPopups, Toaster } from '../../components/ui/toaster.tsx';
import { isRouteMeta, titleOf } from '../route-meta.ts';
import { scrollBehavior } from '../../lib/motion.ts';
import { Header } from './header.tsx';
import { Footer } from './footer.tsx';

function usePageMeta() {
  const { t, i18n } = useTranslation();
  const matches = useMatches();
  const { search } = useLocation();
  const meta = [...matches].reverse().find((m) => isRouteMeta(m.handle))?.handle;
  useEffect(() => {
    const brand = t('brand.name');
    document.title = isRouteMeta(meta) ? `${t(titleOf(meta, search))} · ${brand}` : brand;
    const description =
      isRouteMeta(meta) && meta.description ? t(meta.description) : t('meta.defaultDescription');
    let tag = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!tag) {
      tag = document.createElement('meta');
      tag.name = 'description';
      document.head.append(tag);
    }
    tag.content = description;
  }, [meta, search, t, i18n.language]);
}

/** Every navigation closes modals and the mobile menu, then scrolls smoothly to the top or the anchor. */
function useNavigationEffects() {
  const location = useLocation();
  const closeModal = useUiStore((s) => s.closeModal);
  const setMobileMenuOpen = useUiStore((s) => s.setMobileMenuOpen);
  useEffect(() => {
    closeModal();
    setMobileMenuOpen(false);
    const id = location.hash ? decodeURIComponent(location.hash.slice(1)) : '';
    const frame = requestAnimationFrame(() => {
      const target = id ? document.getElementById(id) : null;
      if (target) target.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
      else window.scrollTo({ top: 0, behavior: scrollBehavior() });
    });
    return () => cancelAnimationFrame(frame);
  }, [location.pathname, location.search, location.hash, closeModal, setMobileMenuOpen]);
}

export function RootLayout() {
  const { t } = useTranslation();
  usePageMeta();
  useNavigationEffects();
  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg">
      <a
        href="#main"
        className="sr-only rounded-md bg-accent px-3 py-2 text-accent-fg focus:not-sr-only focus:fixed focus:start-3 focus:top-3 focus:z-[70]"
      >
        {t('common.skipToContent')}
      </a>
      <Header />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
      <Toaster />
      <NotificationPopups />
      <GlobalModal />
    </div>
  );
}
