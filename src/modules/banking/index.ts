// The banking module's public surface: the bank account other modules name.

export {
  assertBankAccount,
  type BankAccount,
  bankAccountOf,
} from './bank-accounts.service.ts';
export { BANK_FEED_SYNC_CRON, BANK_FEED_SYNC_QUEUE, runDueBankFeeds } from './bank-feeds.jobs.ts';
