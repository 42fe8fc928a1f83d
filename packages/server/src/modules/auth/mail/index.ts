// Public surface of the mail component of the identity module.
export { createOutboxTransport, createSmtpTransport, type Mail, type MailTransport } from "./mail.js";
export { createMailQueue, type MailQueue, type MailQueueOptions } from "./mail-queue.js";
export { escapeHtml, magicLinkMail } from "./messages.js";
