ALTER TABLE `articles` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `original_name` text;--> statement-breakpoint
ALTER TABLE `images` ADD `alt` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `caption` text DEFAULT '' NOT NULL;