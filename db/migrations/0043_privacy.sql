CREATE TABLE `privacy_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`state` text DEFAULT 'sent' NOT NULL,
	`via` text DEFAULT 'form' NOT NULL,
	`address_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`done_at` integer
);
--> statement-breakpoint
CREATE INDEX `privacy_requests_created_idx` ON `privacy_requests` (`created_at`);--> statement-breakpoint
CREATE INDEX `privacy_requests_address_idx` ON `privacy_requests` (`address_hash`);--> statement-breakpoint
CREATE TABLE `suppressed_addresses` (
	`address_hash` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
