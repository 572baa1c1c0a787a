import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Link } from 'react-aria-components/Link';
import { useSelector } from '@xstate/react';
import { microsoftSignInUrl } from '../../api/auth';
import { RETURN_PARAM } from '../../../machines/return-path';
import { sessionActor } from '../../session/session';
import { useForm } from '../../lib/use-form';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { useHydrated } from '../../ui/use-hydrated';
import { SSO_ERROR_KEY, urlLoginError } from './login-errors';
import { signIn, signInErrors } from './sign-in';

// The modal (and react-aria's dialog code) loads on the first 'Forgot password?' click, not with the login route.
const ResetRequestModal = lazy(() => import('./reset-request-modal').then((m) => ({ default: m.ResetRequestModal })));
// Likewise the error banner (and its icons): it shows only after a failed sign-in or with an error in the URL.
const ErrorBanner = lazy(() => import('../../ui/error-banner').then((m) => ({ default: m.ErrorBanner })));

export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const signingIn = useSelector(sessionActor, (s) => s.matches('authenticating'));
  const ssoLoading = useSelector(sessionActor, (s) => s.matches('ssoRedirecting'));
  const sessionError = useSelector(sessionActor, (s) => s.context.error);
  // The session's refusal is the banner (below); the form holds the fields and their check.
  const form = useForm({
    initial: { email: '', password: '' },
    validate: signInErrors,
    submit: (values) => signIn(values, params.get(RETURN_PARAM)),
    fallbackError: '',
  });
  const { values, fieldErrors } = form;
  const [carriedError, setCarriedError] = useState<string | null>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const loading = signingIn || ssoLoading;
  // This screen is prerendered (login.html): until hydrated, the fields are read-only and the buttons disabled.
  const hydrated = useHydrated();
  const inactive = loading || !hydrated;
  // The prerendered link carries no origin (the build knows none): the server then takes the page's own address
  // from the Referer.
  const ssoHref = microsoftSignInUrl(hydrated ? window.location.origin : '');

  // An error carried in the URL or stored by the SSO callback is shown once, then cleared from both places.
  useEffect(() => {
    const fromUrl = urlLoginError(params);
    const stored = localStorage.getItem(SSO_ERROR_KEY);
    if (fromUrl || stored) setCarriedError(fromUrl ?? stored);
    if (stored) localStorage.removeItem(SSO_ERROR_KEY);
    // The page to return to after sign-in stays in the URL (a reload keeps it).
    const returnTo = params.get(RETURN_PARAM);
    if (fromUrl) setParams(returnTo ? { [RETURN_PARAM]: returnTo } : {}, { replace: true });
  }, [params, setParams]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // A sign-in that goes ahead replaces the carried error with its own outcome.
    if (form.canSubmit) setCarriedError(null);
    form.submit();
  };

  const banner = sessionError ?? carriedError;
  const dismissBanner = () => {
    setCarriedError(null);
    sessionActor.send({ type: 'session.dismissError' });
  };

  return (
    <div className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-primary/30 to-transparent p-4">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-700 dark:bg-gray-900">
        <p className="mb-6 text-center text-2xl font-black tracking-tight">Tanya</p>
        <h1 className="text-2xl font-semibold">Welcome Back</h1>
        <p className="mt-1 text-gray-600 dark:text-gray-300">Please sign-in to your account</p>
        {banner && (
          <div className="mt-4">
            <Suspense fallback={null}>
              <ErrorBanner message={banner} onDismiss={dismissBanner} />
            </Suspense>
          </div>
        )}
        <form className="mt-6 space-y-4" onSubmit={onSubmit} noValidate>
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            placeholder="Enter your email"
            value={values.email}
            onChange={(email) => form.change({ email })}
            isRequired
            isDisabled={loading}
            isReadOnly={!hydrated}
            errorMessage={fieldErrors.email}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder="Enter your password"
            value={values.password}
            onChange={(password) => form.change({ password })}
            isRequired
            isDisabled={loading}
            isReadOnly={!hydrated}
            errorMessage={fieldErrors.password}
          />
          <div className="flex justify-end">
            <Link
              onPress={() => setResetOpen(true)}
              isDisabled={inactive}
              className="cursor-pointer text-sm font-medium text-gray-700 underline-offset-4 hover:underline disabled:opacity-50 dark:text-gray-200"
            >
              Forgot password?
            </Link>
          </div>
          <Button type="submit" variant="primary" className="w-full" isDisabled={inactive}>
            {signingIn ? 'Signing in...' : 'Sign in'}
          </Button>
        </form>
        <div className="my-6 flex items-center gap-3 text-xs uppercase text-gray-500 dark:text-gray-400">
          <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" /> or <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" />
        </div>
        <Link
          href={ssoHref}
          isDisabled={inactive}
          onPress={() => sessionActor.send({ type: 'session.ssoStart' })}
          className="flex w-full items-center justify-center gap-2 rounded-lg border border-gray-300 px-4 py-2.5 font-medium hover:bg-gray-50 aria-disabled:opacity-50 dark:border-gray-600 dark:hover:bg-gray-800"
        >
          <MicrosoftLogo />
          {ssoLoading ? 'Loading...' : 'Sign in with Microsoft'}
        </Link>
      </div>
      <footer className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">
        Powered by Tanya · AI assistant for organisations
      </footer>
      {resetOpen && (
        <Suspense fallback={null}>
          <ResetRequestModal isOpen={resetOpen} onOpenChange={setResetOpen} />
        </Suspense>
      )}
    </div>
  );
}

function MicrosoftLogo() {
  return (
    <svg aria-hidden width="18" height="18" viewBox="0 0 21 21">
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  );
}
