CREATE TABLE `broadcast_recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`broadcast_id` integer NOT NULL,
	`subscriber_id` integer,
	`email` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`message_id` text,
	`possibly_duplicated` integer DEFAULT false NOT NULL,
	`next_attempt_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`broadcast_id`) REFERENCES `broadcasts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscriber_id`) REFERENCES `newsletter_subscribers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `broadcast_recipients_unique` ON `broadcast_recipients` (`broadcast_id`,`subscriber_id`);--> statement-breakpoint
CREATE INDEX `broadcast_recipients_work_idx` ON `broadcast_recipients` (`broadcast_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `broadcasts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject` text NOT NULL,
	`preheader` text,
	`content` text NOT NULL,
	`post_id` integer,
	`slug` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`pause_reason` text,
	`total` integer DEFAULT 0 NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`post_id`) REFERENCES `blog_posts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `broadcasts_slug_unique` ON `broadcasts` (`slug`);--> statement-breakpoint
CREATE INDEX `broadcasts_status_idx` ON `broadcasts` (`status`);--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `bounced_at` integer;