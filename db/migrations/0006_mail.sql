CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`headers` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`sent_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_created_idx` ON `outbox` (`created_at`);--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirm_token_hash` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirm_sent_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `unsubscribe_token` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `unsubscribed_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscribers_confirm_unique` ON `newsletter_subscribers` (`confirm_token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscribers_unsubscribe_unique` ON `newsletter_subscribers` (`unsubscribe_token`);