// Keeps the build's own records between Netlify builds, in Netlify's build cache: the cache of
// slow results, the site the last build made and that site's manifest. With them a deploy after a
// one-paper edit remakes only what that paper touches. What is restored is only ever a shortcut:
// the build compares every input by its bytes and remakes whatever differs.
const KEPT = ["content/.cache", "site", ".site-build"];

module.exports = {
  async onPreBuild({ utils }) {
    const restored = await utils.cache.restore(KEPT);
    console.log(restored ? `Restored from the build cache: ${KEPT.join(", ")}` : "No build cache yet: a full build");
  },
  async onPostBuild({ utils }) {
    await utils.cache.save(KEPT);
    console.log(`Saved to the build cache: ${KEPT.join(", ")}`);
  },
};

module.exports.KEPT = KEPT;
