CREATE TABLE `consent_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscriber_id` integer NOT NULL,
	`form_id` integer,
	`form_slug` text(60),
	`page` text(500),
	`wording` text NOT NULL,
	`asked_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`confirmed_at` integer,
	FOREIGN KEY (`subscriber_id`) REFERENCES `newsletter_subscribers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`form_id`) REFERENCES `signup_forms`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `consent_records_subscriber_idx` ON `consent_records` (`subscriber_id`,`asked_at`);--> statement-breakpoint
CREATE INDEX `consent_records_form_idx` ON `consent_records` (`form_id`,`confirmed_at`);--> statement-breakpoint
CREATE TABLE `incentive_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscriber_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`form_id` integer,
	`sends` integer DEFAULT 1 NOT NULL,
	`sent_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`subscriber_id`) REFERENCES `newsletter_subscribers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`form_id`) REFERENCES `signup_forms`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `incentive_deliveries_unique` ON `incentive_deliveries` (`subscriber_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `signup_forms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text(255) NOT NULL,
	`slug` text(60) NOT NULL,
	`heading` text(200),
	`text` text(2000),
	`button_label` text(60),
	`tags` text DEFAULT '[]' NOT NULL,
	`incentive_product_id` integer,
	`thank_you` text(1000),
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`incentive_product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signup_forms_slug_unique` ON `signup_forms` (`slug`);--> statement-breakpoint
ALTER TABLE `download_grants` ADD `subscriber_id` integer REFERENCES newsletter_subscribers(id);