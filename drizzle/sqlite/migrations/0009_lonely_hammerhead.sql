ALTER TABLE `articles` ADD `slug` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `articles` ADD `slug_scope` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `articles` ADD `excerpt` text;--> statement-breakpoint
ALTER TABLE `articles` ADD `html` text;--> statement-breakpoint
ALTER TABLE `articles` ADD `feature_image_id` text;--> statement-breakpoint
-- Existing articles get their id as slug: deterministic, unique, and already lower-case a-z0-9-; an editor can change it.
UPDATE `articles` SET `slug` = lower(`id`), `slug_scope` = coalesce(`site_id`, '');--> statement-breakpoint
CREATE UNIQUE INDEX `articles_slug_scope_slug_unique` ON `articles` (`slug_scope`,`slug`);