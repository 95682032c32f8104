CREATE TABLE `client_packages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` integer NOT NULL,
	`package_id` text NOT NULL,
	`package_name` text NOT NULL,
	`billing` text NOT NULL,
	`amount` integer NOT NULL,
	`instalments` integer,
	`sessions_per_grant` integer DEFAULT 0 NOT NULL,
	`extra_sessions` integer DEFAULT 0 NOT NULL,
	`event_type` text DEFAULT '' NOT NULL,
	`product_id` integer,
	`coupon_id` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`payment_intent_id` text,
	`subscription_id` text,
	`subscription_event_at` integer,
	`next_payment_at` integer,
	`pay_url` text,
	`ended_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `client_packages_client_idx` ON `client_packages` (`client_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `client_packages_intent_unique` ON `client_packages` (`payment_intent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `client_packages_subscription_unique` ON `client_packages` (`subscription_id`);--> statement-breakpoint
CREATE TABLE `clients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`user_id` text,
	`stripe_customer_id` text,
	`notes` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clients_email_unique` ON `clients` (`email`);--> statement-breakpoint
CREATE INDEX `clients_user_idx` ON `clients` (`user_id`);--> statement-breakpoint
CREATE TABLE `coupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`percent_off` integer,
	`amount_off` integer,
	`duration` text NOT NULL,
	`months` integer,
	`expires_at` integer,
	`max_redemptions` integer,
	`redemptions` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`stripe_coupon_id` text,
	`stripe_promotion_code_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_code_unique` ON `coupons` (`code`);--> statement-breakpoint
CREATE TABLE `package_prices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` text NOT NULL,
	`amount` integer NOT NULL,
	`stripe_price_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_prices_unique` ON `package_prices` (`package_id`,`amount`);--> statement-breakpoint
ALTER TABLE `orders` ADD `client_package_id` integer REFERENCES client_packages(id);--> statement-breakpoint
ALTER TABLE `orders` ADD `invoice_id` text;--> statement-breakpoint
CREATE INDEX `orders_client_package_idx` ON `orders` (`client_package_id`);--> statement-breakpoint
ALTER TABLE `booking_event_types` ADD `clients_only` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `client_package_id` integer;--> statement-breakpoint
CREATE INDEX `bookings_client_package_idx` ON `bookings` (`client_package_id`);--> statement-breakpoint
INSERT OR IGNORE INTO `booking_event_types` (`slug`, `name`, `description`, `duration_min`, `step_min`, `min_notice_min`, `window_days`, `clients_only`, `sort_order`) VALUES ('clarity-session', 'MVP Clarity Session', 'Your 90-minute MVP Clarity session.', 90, 30, 240, 60, true, 10);--> statement-breakpoint
INSERT OR IGNORE INTO `booking_event_types` (`slug`, `name`, `description`, `duration_min`, `step_min`, `min_notice_min`, `window_days`, `clients_only`, `sort_order`) VALUES ('coaching-session', 'Coaching Session', 'A 60-minute session of your coaching package.', 60, 30, 240, 60, true, 11);
