"""Training tools (the ``learn`` extra: scikit-learn): the learned bidding judgement (:mod:`atout.learn.bidding`)."""
