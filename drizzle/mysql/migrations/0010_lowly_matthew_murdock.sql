ALTER TABLE `articles` ADD `slug` varchar(200) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `articles` ADD `slug_scope` varchar(36) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `articles` ADD `excerpt` text;--> statement-breakpoint
ALTER TABLE `articles` ADD `html` longtext;--> statement-breakpoint
ALTER TABLE `articles` ADD `feature_image_id` char(36);--> statement-breakpoint
-- Existing articles get their id as slug: deterministic, unique, and already lower-case a-z0-9-; an editor can change it.
UPDATE `articles` SET `slug` = lower(`id`), `slug_scope` = coalesce(`site_id`, '');--> statement-breakpoint
ALTER TABLE `articles` ADD CONSTRAINT `articles_slug_scope_slug_unique` UNIQUE(`slug_scope`,`slug`);