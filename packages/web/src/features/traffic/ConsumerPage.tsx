// Placeholder while the page is written.
export function ConsumerPage() {
  return null;
}
