-- Custom SQL migration file, put your code below! --
-- Every existing image is shown by the article it was uploaded for.
INSERT INTO "article_images" ("article_id", "image_id") SELECT "article_id", "id" FROM "images";
