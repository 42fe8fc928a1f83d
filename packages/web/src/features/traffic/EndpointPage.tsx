// Placeholder while the page is written.
export function EndpointPage() {
  return null;
}
