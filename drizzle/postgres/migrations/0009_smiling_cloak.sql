ALTER TABLE "articles" ADD COLUMN "slug" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "slug_scope" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "excerpt" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "feature_image_id" uuid;--> statement-breakpoint
-- Existing articles get their id as slug: deterministic, unique, and already lower-case a-z0-9-; an editor can change it.
UPDATE "articles" SET "slug" = lower("id"::text), "slug_scope" = coalesce("site_id"::text, '');--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_slug_scope_slug_unique" UNIQUE("slug_scope","slug");