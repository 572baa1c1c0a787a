import { PageTitle } from './page-title';

/** An area whose screen a later release builds: its route, guard and navigation already work. */
export function AreaTitle({ title }: { title: string }) {
  return (
    <div className="mx-auto max-w-5xl p-6 md:p-10">
      <PageTitle>{title}</PageTitle>
    </div>
  );
}
