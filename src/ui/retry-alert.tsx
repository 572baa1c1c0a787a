import { Button } from './button';

/** A load or action that failed inside a dialog: its sentence and a 'Try again' that asks once more. */
export function RetryAlert({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {message}.{' '}
      <Button variant="ghost" size="sm" className="underline" onPress={onRetry}>
        Try again
      </Button>
    </p>
  );
}
