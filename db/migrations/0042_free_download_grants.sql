PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_download_grants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer,
	`subscriber_id` integer,
	`file_id` integer NOT NULL,
	`nonce` text NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`max_downloads` integer NOT NULL,
	`last_download_at` integer,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscriber_id`) REFERENCES `newsletter_subscribers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `product_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_download_grants`("id", "order_id", "subscriber_id", "file_id", "nonce", "downloads", "max_downloads", "last_download_at", "expires_at", "revoked_at", "created_at") SELECT "id", "order_id", "subscriber_id", "file_id", "nonce", "downloads", "max_downloads", "last_download_at", "expires_at", "revoked_at", "created_at" FROM `download_grants`;--> statement-breakpoint
DROP TABLE `download_grants`;--> statement-breakpoint
ALTER TABLE `__new_download_grants` RENAME TO `download_grants`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `download_grants_order_idx` ON `download_grants` (`order_id`);