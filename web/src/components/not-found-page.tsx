import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';

export function NotFoundPage() {
  const location = useLocation();
  useEffect(() => {
    // A wrong address is the visitor's, not a fault of the app: logged as a warning.
    console.warn('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-4xl font-bold">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <Link to="/" className="text-primary underline underline-offset-4">
        Return to Home
      </Link>
    </main>
  );
}
