import { useState, type FormEvent } from 'react';
import type { RouteObject } from 'react-router-dom';

// The reference of the login bench (test/bench/login-reference.ts): the sign-in screen's markup and classes
// (src/features/auth/login-page.tsx) as a bare React + router page would write it, with plain elements and state:
// no design system, no machines, no API client. What Lighthouse measures on it is what React and the router cost
// on this machine today; /login's figures are read against it.

const field = 'flex flex-col gap-1.5';
const label = 'text-sm font-medium text-gray-800 dark:text-gray-200';
const control =
  'h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-base text-gray-900 shadow-xs sm:text-sm ' +
  'placeholder:text-gray-500 dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100';

export function BareLoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(email && password ? null : 'Please enter your email and password');
  };
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-primary/30 to-transparent p-4">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-700 dark:bg-gray-900">
        <p className="mb-6 text-center text-2xl font-black tracking-tight">Tanya</p>
        <h1 className="text-2xl font-semibold">Welcome Back</h1>
        <p className="mt-1 text-gray-600 dark:text-gray-300">Please sign-in to your account</p>
        {error && (
          <p role="alert" className="mt-4 text-sm text-red-700">
            {error}
          </p>
        )}
        <form className="mt-6 space-y-4" onSubmit={onSubmit} noValidate>
          <div className={field}>
            <label htmlFor="email" className={label}>
              Email
            </label>
            <input id="email" name="email" type="email" autoComplete="username" placeholder="Enter your email" required className={control} value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <div className={field}>
            <label htmlFor="password" className={label}>
              Password
            </label>
            <input id="password" name="password" type="password" autoComplete="current-password" placeholder="Enter your password" required className={control} value={password} onChange={(e) => setPassword(e.target.value)} />
          </div>
          <div className="flex justify-end">
            <a href="#reset" className="text-sm font-medium text-gray-700 underline-offset-4 hover:underline dark:text-gray-200">
              Forgot password?
            </a>
          </div>
          <button type="submit" className="inline-flex h-10 w-full items-center justify-center rounded-lg bg-primary px-4 text-sm font-medium text-gray-900 shadow-xs hover:bg-primary-dark">
            Sign in
          </button>
        </form>
        <div className="my-6 flex items-center gap-3 text-xs uppercase text-gray-500 dark:text-gray-400">
          <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" /> or <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" />
        </div>
        <a href="/api/v1/auth/social/microsoft/" className="flex w-full items-center justify-center gap-2 rounded-lg border border-gray-300 px-4 py-2.5 font-medium hover:bg-gray-50 dark:border-gray-600 dark:hover:bg-gray-800">
          Sign in with Microsoft
        </a>
      </div>
      <footer className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">Powered by Tanya · AI assistant for organisations</footer>
    </div>
  );
}

export const referenceRoutes: RouteObject[] = [
  { path: '/login', Component: BareLoginPage },
  { path: '*', Component: () => null },
];
