ALTER TABLE `articles` ADD `version` int DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `original_name` varchar(255);--> statement-breakpoint
ALTER TABLE `images` ADD `alt` varchar(1000) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `caption` varchar(2000) DEFAULT '' NOT NULL;