document.documentElement.dataset.assetScript = "loaded";
