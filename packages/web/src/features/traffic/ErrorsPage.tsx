// Placeholder while the page is written.
export function ErrorsPage() {
  return null;
}
