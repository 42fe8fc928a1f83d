// Placeholder while the page is written.
export function LogsPage() {
  return null;
}
