import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Loading } from '@/components/loading';
import { NotFoundPage } from '@/components/not-found-page';
import { RequireAuth } from './require-auth';

const page = (Component: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<Loading />}>
    <Component />
  </Suspense>
);

const LoginPage = lazy(() => import('@/features/auth/components/login-page'));
const DashboardPage = lazy(() => import('@/features/dashboard/components/dashboard-page'));
const ClientsPage = lazy(() => import('@/features/clients/components/clients-page'));
const ClientProfilePage = lazy(() => import('@/features/clients/components/client-profile-page'));
const IntakeFormPage = lazy(() => import('@/features/intake/components/intake-form-page'));
const IntakesPage = lazy(() => import('@/features/intakes/components/intakes-page'));
const AssessmentsPage = lazy(() => import('@/features/assessments/components/assessments-page'));
const AssessmentFormPage = lazy(() => import('@/features/assessments/components/assessment-form-page'));
const CarePlansPage = lazy(() => import('@/features/care-plans/components/care-plans-page'));
const CarePlanFormPage = lazy(() => import('@/features/care-plans/components/care-plan-form-page'));
const ContractsPage = lazy(() => import('@/features/contracts/components/contracts-page'));
const ContractFormPage = lazy(() => import('@/features/contracts/components/contract-form-page'));
const ApprovePage = lazy(() => import('@/features/signing/components/approve-page'));
const SignPage = lazy(() => import('@/features/signing/components/sign-page'));
const SettingsPage = lazy(() => import('@/features/settings/components/settings-page'));
const PricingPage = lazy(() => import('@/features/pricing/components/pricing-page'));
const MessageTemplatesPage = lazy(() => import('@/features/message-templates/components/message-templates-page'));
const CommunicationsHubPage = lazy(() => import('@/features/communications-hub/components/communications-hub-page'));
const AnalyticsPage = lazy(() => import('@/features/analytics/components/analytics-page'));
const ContractTemplatePage = lazy(() => import('@/features/contract-template/components/contract-template-page'));
const AdminPage = lazy(() => import('@/features/admin/components/admin-page'));
const VisitsPage = lazy(() => import('@/features/visits/components/visits-page'));
const AccountPage = lazy(() => import('@/features/account/components/account-page'));

export function createAppRouter() {
  return createBrowserRouter([
    { path: '/login', element: page(LoginPage) },
    // The family's pages: reached by a personal link, outside the signed-in shell.
    { path: '/approve/:token', element: page(ApprovePage) },
    { path: '/sign/:token', element: page(SignPage) },
    {
      element: <RequireAuth />,
      children: [
        { index: true, element: page(DashboardPage) },
        { path: 'dashboard', element: page(DashboardPage) },
        { path: 'clients', element: page(ClientsPage) },
        { path: 'clients/:id', element: page(ClientProfilePage) },
        { path: 'intake', element: page(IntakeFormPage) },
        { path: 'intakes', element: page(IntakesPage) },
        { path: 'assessments', element: page(AssessmentsPage) },
        { path: 'assessments/new', element: page(AssessmentFormPage) },
        { path: 'care-plans', element: page(CarePlansPage) },
        { path: 'care-plans/new', element: page(CarePlanFormPage) },
        { path: 'contracts', element: page(ContractsPage) },
        { path: 'contracts/new', element: page(ContractFormPage) },
        { path: 'contracts/settings', element: page(ContractTemplatePage) },
        { path: 'communications', element: page(CommunicationsHubPage) },
        { path: 'analytics', element: page(AnalyticsPage) },
        { path: 'visits', element: page(VisitsPage) },
        { path: 'settings', element: page(SettingsPage) },
        { path: 'settings/pricing', element: page(PricingPage) },
        { path: 'settings/templates', element: page(MessageTemplatesPage) },
        { path: 'admin', element: page(AdminPage) },
        { path: 'account', element: page(AccountPage) },
        { path: 'index.html', element: <Navigate to="/" replace /> },
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
