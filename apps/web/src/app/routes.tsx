// The route table of spec section 2, shared by the browser router and the tests' memory router.
// Screens that are not on the first visit's path (legal texts, the alignment viewer with wavesurfer,
// account pages) are loaded on demand so the first bundle stays small.
import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { RootLayout } from './layout/root-layout.tsx';
import { RequireApproval, RequireAuth, RequireQuota } from './guards.tsx';
import { NotFoundPage, PageLoading, RouteErrorPage } from './status-pages.tsx';
import { meta } from './route-meta.ts';
import { LandingPage } from '../features/landing/components/landing-page.tsx';
import { AuthPage } from '../features/auth/components/auth-page.tsx';
import { WaitlistPage } from '../features/waitlist/components/waitlist-page.tsx';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.tsx';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        // shown inside the layout while a screen loaded on demand arrives on a direct visit
        hydrateFallbackElement: <PageLoading />,
        children: [
          {
            index: true,
            element: <LandingPage />,
            handle: meta('meta.landing.title', 'meta.landing.description'),
          },
          {
            path: 'about',
            lazy: async () => ({
              Component: (await import('../features/legal/components/about-page.tsx')).AboutPage,
            }),
            handle: meta('meta.about.title', 'meta.about.description'),
          },
          {
            path: 'privacy',
            lazy: async () => ({
              Component: (await import('../features/legal/components/privacy-page.tsx')).PrivacyPage,
            }),
            handle: meta('meta.privacy.title'),
          },
          {
            path: 'terms',
            lazy: async () => ({
              Component: (await import('../features/legal/components/terms-page.tsx')).TermsPage,
            }),
            handle: meta('meta.terms.title'),
          },
          {
            path: 'guide',
            lazy: async () => ({
              Component: (await import('../features/legal/components/guide-page.tsx')).GuidePage,
            }),
            handle: meta('meta.guide.title'),
          },
          {
            path: 'auth',
            element: <AuthPage />,
            handle: meta('meta.auth.title', 'meta.auth.description', {
              register: 'meta.register.title',
              forgot: 'meta.forgot.title',
              reset: 'meta.reset.title',
            }),
          },
          { path: 'login', element: <Navigate to="/auth" replace /> },
          { path: 'register', element: <Navigate to="/auth?view=register" replace /> },
          {
            path: 'demos',
            lazy: async () => ({
              Component: (await import('../features/demos/components/demo-gallery-page.tsx')).DemoGalleryPage,
            }),
            handle: meta('meta.demos.title', 'meta.demos.description'),
          },
          {
            path: 'demo/:id',
            lazy: async () => ({
              Component: (await import('../features/demos/components/demo-player-page.tsx')).DemoPlayerPage,
            }),
            handle: meta('meta.demo.title'),
          },
          {
            path: 'share/:token',
            lazy: async () => ({
              Component: (await import('../features/share/components/shared-page.tsx')).SharedPage,
            }),
            handle: meta('meta.share.title'),
          },
          {
            element: <RequireAuth />,
            children: [
              { path: 'waitlist', element: <WaitlistPage />, handle: meta('meta.waitlist.title') },
              {
                element: <RequireApproval />,
                children: [
                  { path: 'dashboard', element: <DashboardPage />, handle: meta('meta.dashboard.title') },
                  {
                    path: 'profile',
                    lazy: async () => ({
                      Component: (await import('../features/profile/components/profile-page.tsx'))
                        .ProfilePage,
                    }),
                    handle: meta('meta.profile.title'),
                  },
                  {
                    path: 'settings',
                    lazy: async () => ({
                      Component: (await import('../features/settings/components/settings-page.tsx'))
                        .SettingsPage,
                    }),
                    handle: meta('meta.settings.title'),
                  },
                  {
                    path: 'projects',
                    lazy: async () => ({
                      Component: (await import('../features/projects/components/projects-page.tsx'))
                        .ProjectsPage,
                    }),
                    handle: meta('meta.projects.title'),
                  },
                  {
                    path: 'lexicon',
                    lazy: async () => ({
                      Component: (await import('../features/lexicon/components/lexicon-page.tsx'))
                        .LexiconPage,
                    }),
                    handle: meta('meta.lexicon.title'),
                  },
                  {
                    path: 'admin/accounts',
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/admin-accounts-page.tsx'))
                        .AdminAccountsPage,
                    }),
                    handle: meta('meta.adminAccounts.title'),
                  },
                  {
                    path: 'admin/jobs',
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/admin-jobs-page.tsx'))
                        .AdminJobsPage,
                    }),
                    handle: meta('meta.adminJobs.title'),
                  },
                  {
                    path: 'results/:id',
                    lazy: async () => ({
                      Component: (await import('../features/alignments/components/results-page.tsx'))
                        .ResultsPage,
                    }),
                    handle: meta('meta.results.title'),
                  },
                  {
                    element: <RequireQuota />,
                    children: [
                      {
                        path: 'upload',
                        lazy: async () => ({
                          Component: (await import('../features/alignments/components/upload-page.tsx'))
                            .UploadPage,
                        }),
                        handle: meta('meta.upload.title'),
                      },
                    ],
                  },
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundPage />, handle: meta('meta.notFound.title') },
        ],
      },
    ],
  },
];
