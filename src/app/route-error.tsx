import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ButtonLink } from '../ui/button';

/** Shown when a screen's code fails to load (e.g. a deploy replaced its chunk) or throws while rendering. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? error.statusText : error instanceof Error ? error.message : 'Unknown error';
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="text-gray-600 dark:text-gray-300">{message}</p>
      <ButtonLink href="/" variant="primary" onPress={() => window.location.reload()}>
        Reload
      </ButtonLink>
    </main>
  );
}
