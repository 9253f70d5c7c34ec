// The route table of spec section 2, shared by the browser router and the tests' memory router.
import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { RootLayout } from './layout/root-layout.tsx';
import { RequireApproval, RequireAuth, RequireQuota } from './guards.tsx';
import { NotFoundPage, RouteErrorPage } from './status-pages.tsx';
import { meta } from './route-meta.ts';
import { LandingPage } from '../features/landing/components/landing-page.tsx';
import { AuthPage } from '../features/auth/components/auth-page.tsx';
import { WaitlistPage } from '../features/waitlist/components/waitlist-page.tsx';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.tsx';
import { ProfilePage } from '../features/profile/components/profile-page.tsx';
import { SettingsPage } from '../features/settings/components/settings-page.tsx';
import { AboutPage } from '../features/legal/components/about-page.tsx';
import { PrivacyPage } from '../features/legal/components/privacy-page.tsx';
import { TermsPage } from '../features/legal/components/terms-page.tsx';
import { DemoGalleryPage } from '../features/demos/components/demo-gallery-page.tsx';
import { DemoPlayerPage } from '../features/demos/components/demo-player-page.tsx';
import { UploadPage } from '../features/alignments/components/upload-page.tsx';
import { ResultsPage } from '../features/alignments/components/results-page.tsx';
import { ProjectsPage } from '../features/projects/components/projects-page.tsx';
import { SharedPage } from '../features/share/components/shared-page.tsx';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          {
            index: true,
            element: <LandingPage />,
            handle: meta('meta.landing.title', 'meta.landing.description'),
          },
          {
            path: 'about',
            element: <AboutPage />,
            handle: meta('meta.about.title', 'meta.about.description'),
          },
          { path: 'privacy', element: <PrivacyPage />, handle: meta('meta.privacy.title') },
          { path: 'terms', element: <TermsPage />, handle: meta('meta.terms.title') },
          { path: 'auth', element: <AuthPage />, handle: meta('meta.auth.title', 'meta.auth.description') },
          { path: 'login', element: <Navigate to="/auth" replace /> },
          { path: 'register', element: <Navigate to="/auth?view=register" replace /> },
          {
            path: 'demos',
            element: <DemoGalleryPage />,
            handle: meta('meta.demos.title', 'meta.demos.description'),
          },
          { path: 'demo/:id', element: <DemoPlayerPage />, handle: meta('meta.demo.title') },
          { path: 'share/:token', element: <SharedPage />, handle: meta('meta.share.title') },
          {
            element: <RequireAuth />,
            children: [
              { path: 'waitlist', element: <WaitlistPage />, handle: meta('meta.waitlist.title') },
              {
                element: <RequireApproval />,
                children: [
                  { path: 'dashboard', element: <DashboardPage />, handle: meta('meta.dashboard.title') },
                  { path: 'profile', element: <ProfilePage />, handle: meta('meta.profile.title') },
                  { path: 'settings', element: <SettingsPage />, handle: meta('meta.settings.title') },
                  { path: 'projects', element: <ProjectsPage />, handle: meta('meta.projects.title') },
                  {
                    path: 'results/:id',
                    element: <ResultsPage />,
                    handle: meta('meta.results.title'),
                  },
                  {
                    element: <RequireQuota />,
                    children: [
                      { path: 'upload', element: <UploadPage />, handle: meta('meta.upload.title') },
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
