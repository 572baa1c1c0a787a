import { useNavigate } from 'react-router-dom';
import { Button } from '../../ui/button';

export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <div className="mx-auto flex min-h-[80dvh] max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <p aria-hidden className="text-7xl font-black text-primary-ink dark:text-primary">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <p className="text-gray-600 dark:text-gray-300">The page you are looking for does not exist or has moved.</p>
      <div className="flex gap-3">
        <Button variant="secondary" onPress={() => navigate(-1)}>
          Go Back
        </Button>
        <Button variant="primary" onPress={() => navigate('/home')}>
          Go Home
        </Button>
      </div>
    </div>
  );
}
