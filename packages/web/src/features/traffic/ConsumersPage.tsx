// Placeholder while the page is written.
export function ConsumersPage() {
  return null;
}
