// The SDK suite's Next.js app: App Router route handlers only, built with `next build`.
export default {};
