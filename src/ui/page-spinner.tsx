import { Spinner } from './spinner';

export function PageSpinner() {
  return (
    <div className="flex min-h-[50dvh] items-center justify-center">
      <Spinner label="Loading" />
    </div>
  );
}
